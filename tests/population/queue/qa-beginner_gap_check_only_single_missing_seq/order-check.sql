-- 1) same seq twice in one order
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- 2) a missing seq: the next one is not there but the one after it is
--    (checking seq+2 so the last seq of each order is not reported)
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND EXISTS (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq = a.seq + 2);
