"""The page's words in the browser's language: `GET /api/words` picks by the request's
Accept-Language (or `?lang=`), from the tables `serve` made from the catalogues at start; and a
Chromium whose language is Spanish shows the page in Spanish (an Arabic or Hebrew one right to left), while
an English one keeps it English."""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from serve import FAILSAFE, Server, check

BINARY = sys.argv[1]


def browser(language):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=" + language):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def words(server, **headers):
    status, body = server.get("/api/words", headers=headers)
    check(status == 200, "/api/words answers 200")
    return json.loads(body)


def main():
    server = Server(BINARY)
    try:
        spanish = words(server, **{"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"})
        check(spanish["lang"] == "es" and spanish["words"]["retake"] == "Repetir",
              "Accept-Language es-ES: Spanish words (%s)" % spanish)
        brazil = words(server, **{"Accept-Language": "pt-BR"})
        check(brazil["lang"] == "pt-BR" and brazil["words"]["take-photo"] == "Tirar foto", "pt-BR: Brazilian words")
        chinese = words(server, **{"Accept-Language": "zh"})
        check(chinese["lang"] == "zh-CN", "zh: the Chinese catalogue (zh_CN)")
        unknown = words(server, **{"Accept-Language": "xx, ../es, <b>"})
        check(unknown["lang"] == "en" and unknown["words"]["retake"] == "Retake", "an unknown language: English")
        huge = words(server, **{"Accept-Language": "xx;q=0.5," * 300 + "es"})
        check(huge["lang"] == "en", "a huge header: its first entries only, English")
        arabic = words(server, **{"Accept-Language": "ar"})
        check(arabic["dir"] == "rtl", "Arabic runs right to left")
        hebrew = words(server, **{"Accept-Language": "he-IL,he;q=0.9"})
        check(hebrew["lang"] == "he" and hebrew["dir"] == "rtl" and hebrew["words"]["retake"] == "צילום חוזר",
              "he-IL: Hebrew words, right to left (%s)" % hebrew)
        for language, retake in (("ru", "Переснять"), ("hi", "फिर से लें"), ("vi", "Chụp lại")):
            answer = words(server, **{"Accept-Language": language})
            check(answer["lang"] == language and answer["dir"] == "ltr" and answer["words"]["retake"] == retake,
                  "%s: its own words (%s)" % (language, answer["words"]["retake"]))

        for language, expected, direction in (("es", "Repetir", "ltr"), ("ar", "إعادة التصوير", "rtl"), ("he", "צילום חוזר", "rtl"),
                                              ("en-US", "Retake", "ltr")):
            driver = browser(language)
            try:
                driver.get(server.url)
                wait = WebDriverWait(driver, FAILSAFE)
                wait.until(lambda d: d.find_element("id", "retake").get_attribute("textContent") == expected)
                root = driver.find_element("tag name", "html")
                check(root.get_attribute("dir") == direction, "%s: <html dir=%s>" % (language, direction))
                check(root.get_attribute("lang").split("-")[0] == language.split("-")[0], "%s: <html lang> says so" % language)
                check(True, "Chromium in %s shows %r" % (language, expected))
            finally:
                driver.quit()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
