-- 주문번호별 seq 검사 (윈도우 함수)
--   cnt_same > 1          : 같은 seq 중복
--   next_seq - seq > 1    : 다음 seq 까지 구멍
SELECT ORDER_NO, SEQ, NEXT_SEQ, CNT_SAME
FROM (
    SELECT ORDER_NO,
           SEQ,
           LEAD(SEQ) OVER W                                  AS NEXT_SEQ,
           COUNT(*)  OVER (PARTITION BY ORDER_NO, SEQ)       AS CNT_SAME
    FROM PROCESSED
    WINDOW W AS (PARTITION BY ORDER_NO ORDER BY SEQ)
) X
WHERE CNT_SAME > 1
   OR NEXT_SEQ - SEQ > 1
ORDER BY ORDER_NO, SEQ;
