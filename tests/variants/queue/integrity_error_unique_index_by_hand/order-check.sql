-- order-check.sql : 같은 order_no 안의 seq 중복 / 누락
-- 1) 같은 seq 를 가진 행이 둘 이상
SELECT a.order_no, a.seq, 'duplicate' AS problem
FROM processed a
JOIN processed b
  ON b.order_no = a.order_no AND b.seq = a.seq AND b.msg_id > a.msg_id
UNION
-- 2) 다음 seq 가 없는데 그 주문의 마지막 seq 도 아닌 경우 (그 다음 번호가 빠짐)
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
WHERE NOT EXISTS (
        SELECT 1 FROM processed b WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
  AND a.seq < (SELECT MAX(c.seq) FROM processed c WHERE c.order_no = a.order_no)
ORDER BY 1, 2;
