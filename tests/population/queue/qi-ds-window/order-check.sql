-- order-check.sql
-- Within each order_no, walk the seqs in order and compare every seq with the previous one
-- (LAG window).  A healthy order goes prev+1 each step; equal means a duplicated seq, a
-- jump of more than one means at least one seq is missing in between.
WITH walk AS (
    SELECT order_no,
           msg_id,
           CAST(seq AS INTEGER)                                   AS seq,
           LAG(CAST(seq AS INTEGER)) OVER (PARTITION BY order_no
                                           ORDER BY CAST(seq AS INTEGER), msg_id) AS prev_seq
      FROM processed
)
SELECT order_no,
       prev_seq,
       seq,
       CASE WHEN seq = prev_seq THEN 'duplicate-seq'
            ELSE 'missing-seq(' || (seq - prev_seq - 1) || ')' END AS problem
  FROM walk
 WHERE prev_seq IS NOT NULL
   AND seq <> prev_seq + 1
 ORDER BY order_no, seq;
