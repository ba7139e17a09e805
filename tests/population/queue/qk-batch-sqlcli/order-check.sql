-- order-check.sql -- orders whose seq values are duplicated or have a hole.
-- Per order: n = rows, d = distinct seq, span = max-min+1.
--   n > d     -> some seq appears twice
--   d < span  -> some seq between min and max is missing (any number / width of holes)
SELECT order_no,
       COUNT(*)                     AS n,
       COUNT(DISTINCT seq)          AS d,
       MAX(seq) - MIN(seq) + 1      AS span,
       CASE WHEN COUNT(*) > COUNT(DISTINCT seq) THEN 'duplicate ' ELSE '' END ||
       CASE WHEN COUNT(DISTINCT seq) < MAX(seq) - MIN(seq) + 1 THEN 'missing' ELSE '' END AS problem
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
    OR COUNT(DISTINCT seq) < MAX(seq) - MIN(seq) + 1
 ORDER BY order_no;
