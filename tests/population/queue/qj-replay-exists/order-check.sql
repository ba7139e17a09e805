-- step 6: duplicated seq or gaps in seq per order_no
-- duplicated
SELECT order_no, seq, 'DUPLICATE' AS issue
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- gaps: compare each seq with the next one in the same order
SELECT a.order_no, a.seq, 'GAP' AS issue
FROM processed a
WHERE a.seq < (SELECT MAX(b.seq) FROM processed b WHERE b.order_no = a.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq = a.seq + 1)
UNION ALL
SELECT order_no, seq, 'EMPTY' AS issue
FROM processed
WHERE seq IS NULL;
