-- order-check.sql : seq problems per order_no
-- duplicate seq
SELECT order_no, seq, 'duplicate seq' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- hole: the next seq is missing although the order continues
SELECT p.order_no, p.seq + 1, 'missing seq'
  FROM processed p
 WHERE p.seq < (SELECT MAX(x.seq) FROM processed x WHERE x.order_no = p.order_no)
   AND NOT EXISTS (SELECT 1 FROM processed y WHERE y.order_no = p.order_no AND y.seq = p.seq + 1);
