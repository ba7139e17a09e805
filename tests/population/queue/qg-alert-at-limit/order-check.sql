-- duplicated seq inside one order
SELECT order_no, seq, 'dup' AS issue
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- hole: seq+1 absent although the order goes further
SELECT p.order_no, p.seq + 1, 'missing'
FROM processed p
LEFT JOIN processed n ON n.order_no = p.order_no AND n.seq = p.seq + 1
WHERE n.msg_id IS NULL
  AND p.seq < (SELECT MAX(m.seq) FROM processed m WHERE m.order_no = p.order_no);
