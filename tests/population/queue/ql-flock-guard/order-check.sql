-- 주문별 seq 점검
--  누락: 그 주문의 첫 seq 보다 큰데 바로 앞 번호(seq-1)가 없는 행 -> 그 앞에 구멍
--  중복: 같은 (order_no, seq) 가 2건 이상
WITH 첫번호 AS (
    SELECT order_no, MIN(seq) AS first_seq
    FROM processed
    GROUP BY order_no
)
SELECT p.order_no, p.seq, '누락' AS 문제
FROM processed p
JOIN 첫번호 f ON f.order_no = p.order_no
WHERE p.seq > f.first_seq
  AND NOT EXISTS (SELECT 1 FROM processed r
                  WHERE r.order_no = p.order_no AND r.seq = p.seq - 1)
UNION ALL
SELECT order_no, seq, '중복'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
