-- 6단계: 같은 order_no 안에서 seq 가 중복되거나 비어 있는 경우
SELECT order_no AS 주문번호, seq AS 순번, '중복' AS 문제
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, seq, '누락(다음 순번까지 ' || (다음 - seq - 1) || '건)'
  FROM (SELECT order_no, seq,
               LEAD(seq) OVER (PARTITION BY order_no ORDER BY seq) AS 다음
          FROM processed)
 WHERE 다음 - seq > 1;
