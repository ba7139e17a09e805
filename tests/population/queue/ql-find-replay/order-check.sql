-- 같은 order_no 안에서 바로 앞 seq 와의 차이(step)
--   step = 0  -> seq 중복
--   step > 1  -> 중간에 빠진 seq
-- 첫 행은 step 이 NULL 이라 자동으로 빠짐
SELECT *
FROM (SELECT order_no,
             seq,
             seq - LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS step
        FROM processed)
WHERE step <> 1;
