-- duplicate seq in same order
SELECT order_no, seq, 'DUPLICATE' AS issue
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1

UNION ALL

-- gap: next seq does not exist although it is not the last one
SELECT p.order_no, p.seq + 1 AS seq, 'GAP' AS issue
FROM processed p
WHERE p.seq < (SELECT MAX(x.seq) FROM processed x WHERE x.order_no = p.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed y WHERE y.order_no = p.order_no AND y.seq = p.seq + 1);
