-- order-check.sql : one row per order_no whose seqs are not a clean run.
-- In a clean order every seq is distinct and the distinct seqs fill MIN..MAX exactly.
SELECT order_no,
       COUNT(*)                               AS n_rows,
       COUNT(DISTINCT seq)                    AS n_seq,
       MIN(seq)                               AS first_seq,
       MAX(seq)                               AS last_seq,
       COUNT(*) - COUNT(DISTINCT seq)         AS duplicated,
       MAX(seq) - MIN(seq) + 1 - COUNT(DISTINCT seq) AS missing
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq)
 ORDER BY order_no;
