-- order-check.sql : problems with seq inside one order_no
-- 1) the same seq twice in one order
SELECT order_no, seq, 'duplicate' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- 2) a seq is missing: seq+1 is not there but the one after it is
SELECT p.order_no, p.seq + 1, 'missing'
  FROM processed p
 WHERE NOT EXISTS (SELECT 1 FROM processed n
                    WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
   AND EXISTS     (SELECT 1 FROM processed n
                    WHERE n.order_no = p.order_no AND n.seq = p.seq + 2);
