-- 1) the same seq twice in one order
SELECT order_no, seq, 'duplicate seq' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

-- 2) a missing seq: the next seq is not there but the one after it is
--    (so the last seq of an order does not count as a hole)
SELECT a.order_no, a.seq + 1, 'missing seq'
FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND EXISTS     (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq = a.seq + 2);
