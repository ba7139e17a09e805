-- order-check.sql : seq problems inside one order_no (0 rows = clean)
-- compare every seq with the previous one in the same order (window LAG):
--   same as previous      -> duplicate
--   more than previous+1  -> gap (any width)
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
   AND (seq = prev_seq OR seq > prev_seq + 1)
 ORDER BY order_no, seq;
