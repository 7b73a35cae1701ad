// Expected wire shapes that many tests spell out.

/** A paginated list that fits on its first page. */
export function singlePage(data: unknown[], limit = 25) {
  return { object: 'paginated_list', data, total: data.length, count: data.length, limit, current_page: 1, total_pages: 1, links: null }
}
