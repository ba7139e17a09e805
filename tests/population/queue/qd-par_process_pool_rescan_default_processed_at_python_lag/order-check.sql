-- order-check.sql
-- gap: the next seq that exists in the same order is not seq + 1
SELECT a.order_no,
       a.seq AS seq,
       (SELECT MIN(b.seq) FROM processed b
         WHERE b.order_no = a.order_no AND b.seq > a.seq) AS next_seq,
       'gap' AS kind
  FROM processed a
 WHERE (SELECT MIN(b.seq) FROM processed b
         WHERE b.order_no = a.order_no AND b.seq > a.seq) > a.seq + 1
UNION
-- dup: another message of the same order carries the same seq
SELECT a.order_no, a.seq, a.seq, 'dup'
  FROM processed a
  JOIN processed b
    ON b.order_no = a.order_no
   AND b.seq = a.seq
   AND b.msg_id <> a.msg_id;
