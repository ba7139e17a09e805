-- 1) duplicated seq inside an order
SELECT order_no, seq, 'dup'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- 2) seq+1 missing although a bigger seq exists in the same order (a hole of any width)
SELECT a.order_no, a.seq + 1, 'gap'
FROM processed a
WHERE a.seq < (SELECT MAX(b.seq) FROM processed b WHERE b.order_no = a.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed c
                  WHERE c.order_no = a.order_no AND c.seq = a.seq + 1);
