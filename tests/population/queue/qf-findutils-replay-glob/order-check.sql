-- seq used twice in the same order
SELECT order_no, seq, 'dup' FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1
UNION ALL
-- seq+1 absent although the order goes further
SELECT a.order_no, a.seq + 1, 'hole'
FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND EXISTS     (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq > a.seq + 1);
