-- 같은 order_no 안에서 seq 중복 또는 빠진 번호
-- 중복
SELECT order_no, seq, 'dup' FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1
UNION ALL
-- 빠진 번호: 다음 번호가 없는데 그 주문의 최대값보다 작으면 구멍
SELECT a.order_no, a.seq + 1, 'gap' FROM processed a
WHERE NOT EXISTS (SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND a.seq < (SELECT MAX(c.seq) FROM processed c WHERE c.order_no = a.order_no);
