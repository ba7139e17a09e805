-- Finds, per order_no, a seq that occurs more than once or a gap between consecutive seqs.
SELECT order_no,
       previous_seq,
       seq,
       CASE WHEN seq = previous_seq THEN 'DUPLICATE' ELSE 'GAP' END AS problem
  FROM (SELECT order_no,
               seq,
               LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS previous_seq
          FROM processed) AS ordered
 WHERE previous_seq IS NOT NULL
   AND (seq = previous_seq OR seq - previous_seq > 1)
 ORDER BY order_no, seq;
