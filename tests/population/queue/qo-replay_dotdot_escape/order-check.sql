-- order-check.sql : within an order_no, a seq must be followed by seq+1 (until the last one)
SELECT order_no, seq, nxt,
       CASE WHEN nxt = seq THEN 'dup' ELSE 'gap' END AS what
FROM (SELECT order_no, seq, LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS nxt
      FROM processed)
WHERE nxt IS NOT NULL AND nxt <> seq + 1;
