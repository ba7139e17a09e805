-- order-check.sql
WITH s AS (
  SELECT order_no, seq,
         LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev
  FROM processed
)
SELECT order_no, prev, seq
FROM s
WHERE prev IS NOT NULL AND seq <> prev + 1;
