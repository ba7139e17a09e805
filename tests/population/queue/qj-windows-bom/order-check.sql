-- 순서 검증: 같은 order_no 안에서 seq 중복 / 빈 번호(구멍) 찾기
-- 결과 0행이면 정상
SELECT [p].[order_no], [p].[seq], 'DUPLICATE' AS [problem]
FROM [processed] AS [p]
GROUP BY [p].[order_no], [p].[seq]
HAVING COUNT(*) > 1

UNION

SELECT [a].[order_no], [a].[seq], 'GAP AFTER' AS [problem]
FROM [processed] AS [a]
WHERE (SELECT MIN([b].[seq]) FROM [processed] AS [b]
       WHERE [b].[order_no] = [a].[order_no] AND [b].[seq] > [a].[seq]) > [a].[seq] + 1

UNION

SELECT [n].[order_no], NULL, 'EMPTY SEQ' AS [problem]
FROM [processed] AS [n]
WHERE [n].[seq] IS NULL;
