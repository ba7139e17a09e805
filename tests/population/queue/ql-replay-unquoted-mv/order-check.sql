-- 순서 검사: 정렬했을 때 seq 가 (첫 seq + 행번호 - 1) 과 다르면 어딘가 중복 or 구멍
-- (gaps-and-islands 글에서 가져온 방법)
WITH numbered AS (
  SELECT order_no, seq,
         MIN(seq)     OVER (PARTITION BY order_no) AS first_seq,
         ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq) AS rn
  FROM processed
)
SELECT order_no, seq, first_seq + rn - 1 AS expected_seq
FROM numbered
WHERE seq <> first_seq + rn - 1;
