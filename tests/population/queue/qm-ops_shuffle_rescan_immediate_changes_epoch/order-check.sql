-- order-check.sql
-- (a) holes: a seq that has no seq+1 in its order although the order goes higher
SELECT a.order_no, a.seq AS seq, 'gap after' AS what
  FROM processed a
  LEFT JOIN processed b
         ON b.order_no = a.order_no
        AND b.seq = a.seq + 1
 WHERE b.seq IS NULL
   AND a.seq < (SELECT MAX(c.seq) FROM processed c WHERE c.order_no = a.order_no)
UNION
-- (b) doubles: two different messages with the same order_no + seq
SELECT a.order_no, a.seq, 'duplicate seq'
  FROM processed a
  JOIN processed b
    ON b.order_no = a.order_no
   AND b.seq = a.seq
   AND b.msg_id > a.msg_id;
