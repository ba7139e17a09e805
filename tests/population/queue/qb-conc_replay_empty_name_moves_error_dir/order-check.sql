-- duplicated or missing seq inside an order_no (0 rows = OK)
WITH x AS (
  SELECT order_no, seq,
         LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS nxt
  FROM processed
)
SELECT order_no, seq, nxt
FROM x
WHERE nxt IS NOT NULL AND nxt - seq <> 1;
