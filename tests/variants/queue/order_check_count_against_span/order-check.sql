-- 주문마다: 구멍도 중복도 없으면 행 수 = MAX(seq) - MIN(seq) + 1
-- 더 많으면 중복, 더 적으면 구멍
SELECT order_no,
       COUNT(*)                AS row_count,
       MAX(seq) - MIN(seq) + 1 AS expected
  FROM processed
 GROUP BY order_no
HAVING COUNT(*) <> MAX(seq) - MIN(seq) + 1;
