//! Today's date, for PGN headers and reports, without a date crate.

/// `YYYY.MM.DD` of today, UTC.
pub fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (year, month, day) = civil_date((seconds / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The year, month and day of the day `days` after 1970-01-01 (Howard Hinnant's algorithm).
pub fn civil_date(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + (month <= 2) as i64;
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_across_leap_days_and_centuries() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(20_784), (2026, 11, 27));
        assert_eq!(civil_date(-1), (1969, 12, 31));
    }

    #[test]
    fn today_has_the_pgn_form() {
        let today = today();
        assert_eq!(today.len(), 10);
        assert_eq!(&today[4..5], ".");
        assert_eq!(&today[7..8], ".");
    }
}
