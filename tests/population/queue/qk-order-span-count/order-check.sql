-- order-check.sql
-- An order whose seq values are exactly min, min+1, ..., max has as many rows as
-- the span max-min+1. A duplicated seq adds a row, a missing seq widens the span,
-- so any order where rows <> span has a sequence problem. 0 rows = all orders clean.
SELECT order_no,
       COUNT(*)                AS rows_in_order,
       MIN(seq)                AS first_seq,
       MAX(seq)                AS last_seq,
       MAX(seq) - MIN(seq) + 1 AS expected_rows
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) <> MAX(seq) - MIN(seq) + 1
 ORDER BY order_no;
