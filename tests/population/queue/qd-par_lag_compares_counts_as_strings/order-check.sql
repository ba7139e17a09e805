-- order-check.sql
-- one row per order whose seqs are not a clean 1-step run:
--   repeated seq  : COUNT(*) > COUNT(DISTINCT seq)
--   missing seq   : the distinct seqs do not cover MIN(seq)..MAX(seq)
SELECT order_no,
       group_concat(seq, ',') AS seqs
  FROM (SELECT order_no, seq FROM processed ORDER BY order_no, seq)
 GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
    OR COUNT(DISTINCT seq) < MAX(seq) - MIN(seq) + 1;
