-- duplicates
SELECT order_no, seq, 'dup' AS issue FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1
UNION ALL
-- holes: rows whose successor is missing, except the last seq of the order
SELECT p.order_no, p.seq + 1, 'hole' FROM processed p
WHERE p.seq <> (SELECT MAX(seq) FROM processed WHERE order_no = p.order_no)
  AND (p.order_no, p.seq + 1) NOT IN (SELECT order_no, seq FROM processed);
