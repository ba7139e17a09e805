-- order-check.sql
-- Within one order_no the seq values must be 1 step apart.
-- step = 0 -> duplicated seq, step > 1 -> (step - 1) seq values missing.
WITH ordered AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
      FROM processed
)
SELECT order_no,
       prev_seq,
       seq,
       CASE WHEN seq = prev_seq THEN 'duplicate' ELSE 'gap' END AS problem
  FROM ordered
 WHERE prev_seq IS NOT NULL
   AND seq - prev_seq <> 1
 ORDER BY order_no, seq;
