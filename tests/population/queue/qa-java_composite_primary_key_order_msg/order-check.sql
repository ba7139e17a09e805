-- Returns one row per (order_no, seq) anomaly; empty result means the sequence is consistent.
WITH ordered AS (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS previous_seq
      FROM processed
)
SELECT order_no,
       previous_seq,
       seq,
       CASE WHEN seq = previous_seq THEN 'DUPLICATE' ELSE 'GAP' END AS anomaly
  FROM ordered
 WHERE previous_seq IS NOT NULL
   AND seq <> previous_seq + 1;
