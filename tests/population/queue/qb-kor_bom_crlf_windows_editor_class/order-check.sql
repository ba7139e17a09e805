-- 순서 검증: 같은 order_no 안에서 seq 가 중복되거나 비어 있는 경우를 찾는다
-- 문제 없으면 0행
-- (1) 중복: 같은 order_no, seq 가 두 번 이상
SELECT order_no, seq, '중복' AS 문제
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- (2) 누락: seq 다음 번호(seq+1)가 없는데 seq 가 그 주문의 최대값이 아닌 경우
SELECT a.order_no, a.seq + 1, '누락'
FROM processed a
WHERE a.seq < (SELECT MAX(b.seq) FROM processed b WHERE b.order_no = a.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq = a.seq + 1);
