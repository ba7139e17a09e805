-- 같은 order_no 안에서 seq 중복 또는 빈 번호 찾기 (정상이면 0행)
SELECT order_no, 이전seq, seq
FROM (
    SELECT order_no, seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS 이전seq
    FROM processed
)
WHERE 이전seq IS NOT NULL
  AND seq <> 이전seq + 1;   -- 같으면 중복, 2 이상 차이면 누락
