-- order-check.sql
-- per order_no, compare each seq with the next one:
--   next = seq      -> seq duplicated
--   next > seq + 1  -> seq(s) missing in between
SELECT order_no, seq, next_seq
  FROM (SELECT order_no, seq,
               LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS next_seq
          FROM processed)
 WHERE next_seq IS NOT NULL
   AND next_seq <> seq + 1;
