-- seq problems per order_no. empty result = OK
WITH w AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
SELECT order_no, seq, 'DUPLICATE' AS issue
FROM w
WHERE seq = prev_seq
UNION ALL
SELECT order_no, prev_seq + 1, 'MISSING' AS issue   -- the seq skipped between prev and current
FROM w
WHERE seq - prev_seq = 2
ORDER BY order_no, seq;
