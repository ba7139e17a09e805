-- duplicated seq within an order
SELECT order_no, seq, 'dup' AS kind
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- missing seq: for every seq except an order's last, seq+1 must exist
SELECT a.order_no, a.seq + 1, 'gap'
FROM processed a
WHERE a.seq <> (SELECT MAX(b.seq) FROM processed b WHERE b.order_no = a.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed c
                  WHERE c.order_no = a.order_no AND c.seq = a.seq + 1);
