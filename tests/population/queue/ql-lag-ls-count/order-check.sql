-- order-check.sql
-- (a) 같은 order_no + seq 가 2개 이상 = 중복
-- (b) 각 행의 "다음으로 큰 seq" 가 seq+1 보다 크면 = 구멍
SELECT order_no, seq, 'duplicate' AS issue, COUNT(*) AS n
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT a.order_no, a.seq, 'gap', MIN(b.seq) - a.seq - 1
FROM processed a
JOIN processed b ON b.order_no = a.order_no AND b.seq > a.seq
GROUP BY a.order_no, a.seq
HAVING MIN(b.seq) > a.seq + 1;
