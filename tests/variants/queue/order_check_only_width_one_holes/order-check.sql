-- 같은 주문 안에서 seq 가 같거나(중복) 하나 건너뛴(누락) 행을 찾는다
SELECT order_no, seq, prev
FROM (
  SELECT order_no, seq, LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev
  FROM processed
) t
WHERE prev = seq OR prev = seq - 2
ORDER BY order_no, seq;
