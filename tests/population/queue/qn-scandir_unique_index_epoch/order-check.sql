-- within one order_no, consecutive seq values must differ by exactly 1:
-- a difference of 0 is a duplicated seq, more than 1 is a hole.
SELECT order_no, prev_seq, seq
FROM (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
WHERE prev_seq IS NOT NULL
  AND seq - prev_seq <> 1;
