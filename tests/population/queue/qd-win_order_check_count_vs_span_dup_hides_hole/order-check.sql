-- order-check.sql
-- If the seqs of an order run MIN..MAX without holes and without repeats,
-- the order has exactly MAX - MIN + 1 rows.
-- More rows than that -> some seq is duplicated,
-- fewer rows          -> some seq is missing.
SELECT order_no,
       COUNT(*)                    AS row_count,
       MAX(seq) - MIN(seq) + 1     AS expected,
       CASE WHEN COUNT(*) > MAX(seq) - MIN(seq) + 1
            THEN 'duplicate seq' ELSE 'missing seq' END AS problem
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> MAX(seq) - MIN(seq) + 1;
