-- order-check.sql
-- 같은 order_no 안에서 seq 가 중복되거나 비어 있는 경우

-- 1) 중복된 seq
SELECT p.[order_no], p.[seq], COUNT(*) AS [cnt], 'duplicate' AS [problem]
FROM [processed] AS p
GROUP BY p.[order_no], p.[seq]
HAVING COUNT(*) > 1

UNION ALL

-- 2) 비어 있는 seq : MIN~MAX 사이의 개수보다 서로 다른 seq 가 적으면 구멍이 있음
SELECT s.[order_no], NULL, s.[hi] - s.[lo] + 1 - s.[n], 'missing'
FROM (
    SELECT [order_no],
           MIN([seq])            AS [lo],
           MAX([seq])            AS [hi],
           COUNT(DISTINCT [seq]) AS [n]
    FROM [processed]
    GROUP BY [order_no]
) AS s
WHERE s.[n] < s.[hi] - s.[lo] + 1;
