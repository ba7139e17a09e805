-- duplicated seq within an order
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- missing seq: seq n exists, n+1 does not, but something bigger does
SELECT p.order_no, p.seq + 1, 'missing'
FROM processed p
WHERE NOT EXISTS (SELECT 1 FROM processed x WHERE x.order_no = p.order_no AND x.seq = p.seq + 1)
  AND p.seq < (SELECT MAX(y.seq) FROM processed y WHERE y.order_no = p.order_no);
