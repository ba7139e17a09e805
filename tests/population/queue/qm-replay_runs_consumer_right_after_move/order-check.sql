-- order-check.sql
-- per order_no: duplicated seq (count vs distinct) or a hole (span vs distinct)
SELECT order_no,
       COUNT(*)            AS n,
       COUNT(DISTINCT seq) AS n_distinct,
       MIN(seq)            AS first_seq,
       MAX(seq)            AS last_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq);
