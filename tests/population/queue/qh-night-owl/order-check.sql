-- 같은 order_no 안에서 seq 가 중복되거나 빈 번호가 있는 곳 찾기
-- 아이디어: seq 순으로 줄 세우고 바로 앞 seq 와 비교
--   차이 0  -> 중복
--   차이 2+ -> 그 사이가 비어 있음 (구멍 폭 상관없음)
-- 문제 없으면 0행
SELECT order_no,
       prev_seq,
       seq,
       CASE WHEN seq = prev_seq THEN 'duplicate' ELSE 'gap' END AS problem
FROM (
    SELECT order_no,
           seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
WHERE prev_seq IS NOT NULL
  AND seq - prev_seq <> 1
ORDER BY order_no, seq;
