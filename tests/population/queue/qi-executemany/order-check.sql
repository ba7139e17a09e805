-- order-check.sql
-- For every order: the seqs that are missing between MIN(seq) and MAX(seq), plus the seqs that
-- occur more than once.  Missing ones are found by comparing each seq with the next larger
-- seq of the same order (correlated MIN), so a hole of any width is caught.
SELECT a.order_no,
       a.seq                                 AS after_seq,
       MIN(b.seq)                            AS next_seq,
       'gap'                                 AS kind
  FROM processed a
  JOIN processed b
    ON b.order_no = a.order_no AND b.seq > a.seq
 GROUP BY a.order_no, a.seq
HAVING MIN(b.seq) > a.seq + 1
UNION ALL
SELECT order_no, seq, seq, 'duplicate'
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) >= 2;
