-- duplicated seq within an order
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- hole: a seq whose successor is absent although a larger seq exists in the same order
SELECT a.order_no, a.seq, 'hole after'
FROM processed a
WHERE EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq > a.seq + 1)
  AND NOT EXISTS (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq = a.seq + 1);
