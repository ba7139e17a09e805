WITH s AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY printf('%02d', seq)) AS before
    FROM processed
)
SELECT order_no, before, seq
FROM s
WHERE before IS NOT NULL
  AND seq - before <> 1;
