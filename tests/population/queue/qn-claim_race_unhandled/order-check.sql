-- duplicated seq in one order
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION
-- missing seq: the next seq is more than 1 away
SELECT p.order_no, p.seq, 'missing after' AS problem
FROM processed p
WHERE p.seq < (SELECT MAX(seq) FROM processed x WHERE x.order_no = p.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed n WHERE n.order_no = p.order_no AND n.seq = p.seq + 1);
