-- order-check.sql
-- An order is broken when
--   * a seq appears more than once      (COUNT(*) > COUNT(DISTINCT seq)), or
--   * the distinct seqs do not fill MIN..MAX (a hole of any width).
SELECT order_no,
       COUNT(*)             AS messages,
       COUNT(DISTINCT seq)  AS distinct_seq,
       MIN(seq)             AS first_seq,
       MAX(seq)             AS last_seq
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
