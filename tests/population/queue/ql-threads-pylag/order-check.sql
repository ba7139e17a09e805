-- 순서 검증 (order-check.sql)
-- 1) 같은 주문에 같은 seq 가 두 번 이상 -> 중복
-- 2) seq 다음 번호(seq+1)가 없는데 그 주문의 최대 seq 보다 작음 -> 누락(구멍)
SELECT order_no, seq, '중복' AS 문제
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION
SELECT a.order_no, a.seq + 1, '누락'
  FROM processed AS a
 WHERE a.seq < (SELECT MAX(m.seq) FROM processed AS m WHERE m.order_no = a.order_no)
   AND NOT EXISTS (SELECT 1 FROM processed AS n
                    WHERE n.order_no = a.order_no AND n.seq = a.seq + 1);
