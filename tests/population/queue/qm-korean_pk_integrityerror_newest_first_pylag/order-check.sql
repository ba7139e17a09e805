-- 순서 검증: 같은 order_no 안에서 seq 가 중복되거나 비어 있는 주문을 찾는다.
-- 중복: 행 수 <> 서로 다른 seq 수
-- 누락: (최대 seq - 최소 seq + 1) <> 서로 다른 seq 수   (구멍 폭과 개수에 상관없이 잡힘)
SELECT order_no                   AS "주문번호",
       COUNT(*)                   AS "행수",
       COUNT(DISTINCT seq)        AS "고유_seq",
       MIN(seq)                   AS "최소",
       MAX(seq)                   AS "최대"
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
