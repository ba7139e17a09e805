-- per order_no: seq that repeats (DUP) or jumps over a number (GAP)
SELECT order_no, prev_seq, seq,
       CASE WHEN seq = prev_seq THEN 'DUP' ELSE 'GAP' END AS problem
  FROM (SELECT order_no, seq,
               LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
          FROM processed)
 WHERE prev_seq IS NOT NULL
   AND seq - prev_seq <> 1;
