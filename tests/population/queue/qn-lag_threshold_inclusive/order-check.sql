SELECT a.order_no, a.seq, 'duplicate seq'
  FROM processed a
  JOIN processed b ON b.order_no = a.order_no AND b.seq = a.seq AND b.msg_id < a.msg_id
UNION ALL
SELECT a.order_no, a.seq, 'gap after this seq'
  FROM processed a
 WHERE NOT EXISTS (SELECT 1 FROM processed n WHERE n.order_no = a.order_no AND n.seq = a.seq + 1)
   AND EXISTS     (SELECT 1 FROM processed m WHERE m.order_no = a.order_no AND m.seq > a.seq);
