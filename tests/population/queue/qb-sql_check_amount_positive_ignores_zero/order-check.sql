-- order-check: duplicated or missing seq within one order_no (0 rows = clean)
WITH s AS (
    SELECT order_no, seq,
           LEAD(seq) OVER w AS next_seq
    FROM processed
    WINDOW w AS (PARTITION BY order_no ORDER BY seq)
)
SELECT order_no, seq, next_seq,
       CASE WHEN next_seq = seq THEN 'duplicate' ELSE 'gap' END AS issue
FROM s
WHERE next_seq IS NOT NULL
  AND next_seq <> seq + 1;
